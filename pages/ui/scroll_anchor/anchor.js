// The scroll helper of pages/ui/scroll.py, an invisible element at the end of the page (where
// its room costs the layout nothing). When the page sends it a new `nonce` (a click or an
// edit whose result appears elsewhere on the page), the window scrolls so that the element
// matching `target` (a CSS selector) is at the top of the screen, below Streamlit's header;
// with `focus`, the element matching `target` takes the keyboard focus instead, if the focus
// was lost to the page's body (the focused button was replaced by this one), and nothing
// scrolls. A null nonce, or one it has already acted on, does nothing, so a rerun or a page
// opened later never jumps.
//
// data: {nonce: number or null, target: CSS selector, focus: boolean}

const seen = new WeakMap(); // the component's root -> the last nonce it scrolled for

export default function scrollAnchor({ data, parentElement }) {
  const nonce = data.nonce;
  if (nonce === null || nonce === undefined || seen.get(parentElement) === nonce) {
    return;
  }
  seen.set(parentElement, nonce);
  // After Streamlit has laid out the page (this element arrives last).
  requestAnimationFrame(() => requestAnimationFrame(() => {
    const target = document.querySelector(data.target);
    if (!target) {
      return;
    }
    if (data.focus) {
      const lost = !document.activeElement || document.activeElement === document.body;
      if (lost) {
        target.focus({ preventScroll: true });
      }
      return;
    }
    target.style.scrollMarginTop = "4rem"; // Streamlit's header covers the top 3.75rem
    target.scrollIntoView({ block: "start", behavior: "instant" });
  }));
}
