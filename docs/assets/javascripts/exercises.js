// The exercises' answer check and their "try it live" links. The build writes everything this needs on the page:
// each answer form's accepted range (data-low, data-high), the units it accepts with their factors (data-units) and
// its messages (data-msg-*), so this script holds no number and no word. The rule is the package's check_answer:
// grouping commas dropped, a number, then a unit compared without case or spaces.
(() => {
  const TYPED = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)(.*)$/;
  const outcome = (form, typed) => {
    const match = TYPED.exec(typed.replace(/[,，]/g, "").trim());
    if (!match) return "number";
    const unit = match[2].replace(/\s+/g, "").toLowerCase();
    const units = JSON.parse(form.dataset.units);
    if (unit && !(unit in units)) return "unit";
    const value = Number(match[1]) * (unit ? units[unit] : 1);
    return Number(form.dataset.low) <= value && value <= Number(form.dataset.high) ? "right" : "wrong";
  };
  document.addEventListener("submit", (event) => {
    const form = event.target instanceof HTMLFormElement ? event.target : null;
    if (!form || !form.classList.contains("exercise-check")) return;
    event.preventDefault();
    const result = outcome(form, form.elements.namedItem("answer").value);
    const output = form.querySelector("output");
    output.textContent = form.dataset[`msg${result[0].toUpperCase()}${result.slice(1)}`];
    output.dataset.outcome = result;
  });
  // "?live=FORM&option=value...#live-FORM": fill the page's live form with an exercise's inputs, in view.
  const fill = () => {
    const params = new URLSearchParams(window.location.search);
    const name = params.get("live");
    if (!name) return;
    const form = document.querySelector(`form[data-live="${CSS.escape(name)}"]`);
    if (!form) return;
    for (const [option, value] of params) {
      const input = option === "live" ? null : form.elements.namedItem(option);
      if (input && "value" in input) input.value = value;
    }
    form.scrollIntoView({ block: "start" });
  };
  fill();
})();
