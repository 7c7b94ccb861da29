// A link to copy (pages/ui/copy_box.py): the text in a read-only box and a Copy button. The
// clipboard API needs a secure page (https or localhost); elsewhere the box's text is selected
// and copied the older way, and failing that it stays selected for Ctrl+C.

export default function copyBox({ data, parentElement }) {
  let box = parentElement.querySelector(".copy");
  if (!box) {
    box = document.createElement("div");
    box.className = "copy";
    box.innerHTML = `
      <textarea readonly rows="3" spellcheck="false"></textarea>
      <div class="row">
        <button type="button"></button>
        <span class="done" role="status" aria-live="polite"></span>
      </div>`;
    parentElement.appendChild(box);
    const text = box.querySelector("textarea");
    text.addEventListener("focus", () => text.select());
    box.querySelector("button").addEventListener("click", () => copy(box));
  }
  const text = box.querySelector("textarea");
  text.value = data.text;
  text.setAttribute("aria-label", data.label);
  box.querySelector("button").textContent = data.button;
  box.dataset.copied = data.copied;
  box.querySelector(".done").textContent = "";
}

async function copy(box) {
  const text = box.querySelector("textarea");
  const done = box.querySelector(".done");
  try {
    await navigator.clipboard.writeText(text.value);
  } catch {
    text.select();
    if (!document.execCommand("copy")) {
      done.textContent = "Selected: press Ctrl+C (⌘C) to copy.";
      return;
    }
  }
  done.textContent = box.dataset.copied;
}
