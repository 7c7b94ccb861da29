// The Live class's follower (pages/ui/classroom_student.py `_follow`): waits, outside
// Streamlit's reruns, for the teacher to move the class, then asks the page to look (a trigger,
// which reruns the follower's fragment). It asks the beat address (pages/ui/classroom_beat.py),
// which answers once the room's version differs from the one this page drew, or after a while
// with the same one (then it asks again). Where the app has no beat address (started from
// streamlit_app.py, Streamlit answers with its own page), it asks the page every `fallback_ms`.
//
// data: [the beat's address with the room's code and the student's pass, the room's version this
//        page drew, the page's own pace in ms, the server process that drew it] (a list, which
//        Streamlit sends as it is: it looks through each value of a dict for a dataframe to send
//        apart, on every run)

const followers = new WeakMap(); // the component's root -> the follower running in it
let noBeat = false; // this server has no beat address: ask the page at its pace
let asked = 0;

export default function follow({ data, parentElement, setTriggerValue }) {
  const [url, version, fallbackMs, server] = data;
  const running = followers.get(parentElement);
  if (running && running.url === url && running.version === version) {
    return undefined; // the same page drawn again: keep waiting
  }
  if (running) {
    running.controller.abort();
  }
  const follower = { url, version, server, controller: new AbortController() };
  followers.set(parentElement, follower);
  wait(follower, fallbackMs, () => {
    asked += 1;
    setTriggerValue("moved", asked);
  });
  return () => {
    follower.controller.abort();
    followers.delete(parentElement);
  };
}

function pause(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => { clearTimeout(timer); resolve(); });
  });
}

// Until the page draws another version (which aborts this follower): wait on the beat address
// and ask the page to look when the version moved; without a beat address, ask it every
// `fallbackMs` (it then reads the database itself).
async function wait(follower, fallbackMs, ask) {
  const signal = follower.controller.signal;
  const url = `${follower.url}&seen=${encodeURIComponent(follower.version)}`
    + `&drawn=${encodeURIComponent(follower.server)}`;
  while (!signal.aborted) {
    if (noBeat) {
      ask();
      await pause(fallbackMs, signal);
      continue;
    }
    const answer = await fetch(url, { signal, cache: "no-store", credentials: "same-origin" })
      .catch(() => null); // aborted, or the server is away (the page reconnects)
    const json = answer !== null
      && (answer.headers.get("content-type") || "").includes("application/json");
    if (json && (answer.status === 429 || answer.status === 503)) {
      // the beat's own limits: ask it again when it says, the page has nothing new to draw
      await pause(1000 * (Number(answer.headers.get("retry-after")) || 1), signal);
      continue;
    }
    const body = json && answer.ok ? await answer.json().catch(() => null) : null;
    if (body !== null && body.server !== follower.server) {
      // another process answers (a restart): this page's session, and the fragment the
      // trigger would rerun, are gone there; a reload is the same student (the pass is in the
      // address)
      window.location.reload();
      return;
    }
    if (body !== null && body.version === follower.version) {
      continue; // the same version after the beat's wait: ask again
    }
    if (answer !== null && !json && answer.status < 500) {
      noBeat = true; // Streamlit's own answer: this server has no beat address
      continue;
    }
    if (!json) {
      await pause(fallbackMs, signal); // the server is away or failed: a while later
    }
    if (!signal.aborted) {
      ask(); // the teacher moved, or the pass opens the room no more (the page says why)
      await pause(fallbackMs, signal); // the page's rerun aborts this follower before
    }
  }
}
