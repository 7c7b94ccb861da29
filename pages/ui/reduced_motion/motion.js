// The reporter of pages/ui/motion.py, an invisible element at the end of the page: tells the
// server whether the reader's system asks for reduced motion (prefers-reduced-motion: reduce),
// which only the browser knows, when the answer differs from the one the server holds
// (`known`), so a reader who never asked for it costs no rerun.
//
// data: {known: boolean}

export default function reportMotion({ data, setTriggerValue }) {
  const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  if (reduce !== data.known) {
    setTriggerValue("reduce", reduce);
  }
}
