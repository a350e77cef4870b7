// Typeset the formulas that pymdownx.arithmatex (generic mode) leaves in the page, with the KaTeX this site serves
// (fetched by `make setup` into assets/vendor/katex/). KaTeX's script, style sheet and fonts are loaded only on pages
// that have a formula. Inline math arrives as <span class="arithmatex">\( ... \)</span>, display math as
// <div class="arithmatex">\[ ... \]</div>.
(function () {
  var vendor = new URL("../vendor/katex/", document.currentScript.src).href;

  function typeset() {
    document.querySelectorAll(".arithmatex").forEach(function (element) {
      var text = element.textContent.trim();
      var display = element.tagName === "DIV";
      var open = display ? "\\[" : "\\(";
      var close = display ? "\\]" : "\\)";
      if (text.startsWith(open) && text.endsWith(close)) {
        text = text.slice(open.length, text.length - close.length);
      }
      katex.render(text, element, { displayMode: display, throwOnError: false });
    });
  }

  function load() {
    if (!document.querySelector(".arithmatex")) {
      return;
    }
    if (window.katex) {
      typeset();
      return;
    }
    var style = document.createElement("link");
    style.rel = "stylesheet";
    style.href = vendor + "katex.min.css";
    document.head.appendChild(style);
    var script = document.createElement("script");
    script.src = vendor + "katex.min.js";
    script.onload = typeset;
    document.head.appendChild(script);
  }

  document$.subscribe(load);
})();
