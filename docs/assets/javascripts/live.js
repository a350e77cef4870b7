// Live what-ifs: run this site's own copy of ascend_dsa's command line in the reader's browser.
//
// Imported by the one-line loader hooks/live.py puts on pages with a form[data-live] (ascend_dsa.render.live),
// when the reader clicks "Run live"; until then the page downloads nothing for its forms. Then Pyodide (Python compiled
// to WebAssembly, fetched by `make setup` into assets/vendor/pyodide/) starts from this site, never a CDN, and the
// package the build checked (assets/live/ascend_dsa.zip) is unpacked and imported. Each change of an input runs
// `ascend-dsa COMMAND --option value ...` through ascend_dsa.cli.run_captured: the inputs reach Python as a list of
// strings (toPy), parsed by the command's own option parser, never pasted into code. One runtime serves every form
// of the page; a new page starts a new one (Material reloads pages), which the HTTP cache makes quicker.
const vendor = new URL("../vendor/pyodide/", import.meta.url).href;
const core = new URL("../live/ascend_dsa.zip", import.meta.url).href;
const steps = { loading: 1, importing: 2, ready: 3 };
let runtime = null;

function loadRuntime(say) {
  runtime ??= (async () => {
    if (typeof WebAssembly !== "object") throw new Error("WebAssembly is not available in this browser");
    say("loading");
    const { loadPyodide } = await import(`${vendor}pyodide.mjs`);
    const pyodide = await loadPyodide({ indexURL: vendor, packageBaseUrl: vendor });
    say("importing");
    const response = await fetch(core, { cache: "no-cache" });
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}: ${response.url}`);
    pyodide.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/lib/ascend_dsa_live" });
    pyodide.runPython("import sys; sys.path.insert(0, '/lib/ascend_dsa_live')");
    const cli = pyodide.pyimport("ascend_dsa.cli");
    const run = (argv) => {
      const args = pyodide.toPy(argv);
      try {
        const result = cli.run_captured(args);
        const [status, stdout, stderr] = result.toJs();
        result.destroy();
        return { status, stdout, stderr };
      } finally {
        args.destroy();
      }
    };
    run.write = (path, bytes) => pyodide.FS.writeFile(path, bytes); // into Pyodide's memory, this tab only
    return run;
  })();
  runtime.catch(() => { runtime = null; });
  return runtime;
}

function argvOf(form) {
  const argv = [form.dataset.live];
  for (const input of form.querySelectorAll("[name]")) {
    if (input.type === "file") {
      if (input.dataset.livePath) argv.push(`--${input.name}`, input.dataset.livePath);
    } else if (input.type === "checkbox") {
      if (input.checked) argv.push(`--${input.name}`);
    } else if (input.value.trim() !== "") {
      argv.push(`--${input.name}`, input.value.trim());
    }
  }
  return argv;
}

function showResult(form, { status, stdout, stderr }) {
  const output = form.querySelector("[data-live-output]");
  const error = form.querySelector("[data-live-error]");
  // A run that printed nothing (an error) leaves the last output in place, dimmed.
  if (stdout !== "") output.textContent = stdout;
  output.hidden = output.textContent === "";
  output.classList.toggle("live-stale", stdout === "");
  error.textContent = stderr.trimEnd();
  error.hidden = stderr === "";
  // The line sits next to the first input it names ("argument --heads: ...", "--l2-bandwidth 1e+17: ..."), else
  // next to the form's first input, never below the whole form.
  const input = [...stderr.matchAll(/--([a-z0-9-]+)/g)]
    .map((named) => form.querySelector(`label [name="${named[1]}"]`))
    .find(Boolean);
  (input || form.querySelector("fieldset label [name]")).closest("label").after(error);
  form.dataset.liveExit = String(status);
}

// A file input (render/live.py's LiveInput with file_max_bytes): the reader's file, chosen or dropped, is read here,
// at most data-live-max-bytes of it, and written into Pyodide's file system; argvOf then gives its path. Nothing
// is sent anywhere.
async function takeFile(input, write) {
  const file = input.files[0];
  if (!file) {
    delete input.dataset.livePath;
    return;
  }
  const bytes = new Uint8Array(await file.slice(0, Number(input.dataset.liveMaxBytes)).arrayBuffer());
  const path = `/tmp/live-${input.name}`;
  write(path, bytes);
  input.dataset.livePath = path;
}

// A form of render/live.py's LIVE_FIGURES also redraws its figure: the same command line with `--svg -` prints the
// SVG the build drew for these options; it replaces the figure only when the command succeeded.
function redraw(form, run) {
  if (!form.hasAttribute("data-live-draws")) return;
  const selector = `[data-live-figure="${form.dataset.live}"]`;
  const figure = form.querySelector(selector) ?? document.querySelector(selector);
  if (!figure) return;
  const { status, stdout } = run([...argvOf(form), "--svg", "-"]);
  if (status === 0) {
    figure.innerHTML = stdout;
    figure.liveSource = stdout; // what the command printed, for the tests to compare with the command line's
  }
  figure.classList.toggle("live-stale", status !== 0);
}

export async function start(form) {
  if (form.dataset.liveState) return;
  form.dataset.liveState = "loading";
  form.addEventListener("submit", (event) => event.preventDefault());
  const status = form.querySelector("[data-live-status]");
  const text = status.querySelector("span");
  const progress = status.querySelector("progress");
  const say = (step) => {
    text.textContent = form.dataset[`live${step[0].toUpperCase()}${step.slice(1)}`];
    progress.value = steps[step];
    progress.hidden = step === "ready";
  };
  form.querySelector("[data-live-start]").disabled = true;
  status.hidden = false;
  say("loading"); // a second form of the page may wait for the runtime the first one is loading
  let run;
  try {
    run = await loadRuntime(say);
  } catch (failure) {
    text.textContent = `${form.dataset.liveFailed} ${failure.message || failure}`;
    progress.hidden = true;
    form.querySelector("[data-live-start]").disabled = false;
    delete form.dataset.liveState;
    form.dataset.liveFailure = String(failure.message || failure);
    return;
  }
  say("ready");
  form.querySelector("fieldset").hidden = false;
  const update = () => {
    showResult(form, run(argvOf(form)));
    redraw(form, run);
  };
  form.addEventListener("input", (event) => {
    if (event.target.type !== "file") update(); // a file runs once it has been read, below
  });
  for (const input of form.querySelectorAll('input[type="file"]')) {
    input.addEventListener("change", () => takeFile(input, run.write).then(update));
  }
  update();
  form.dataset.liveState = "ready";
}
