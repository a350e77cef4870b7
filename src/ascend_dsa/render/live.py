"""The "Run live" forms: the command line's options as inputs, for live.js to run in the reader's browser.

Each form names a what-if (``data-live``: a subcommand of ``ascend-dsa``), holds one input per option with the
option's name without dashes, and an output element (``data-live-output``) where live.js prints what the command
prints. Until the reader clicks, only the button shows and nothing is downloaded; every sentence live.js shows comes
from the form's ``data-live-*`` attributes, so the script holds no words of either language.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Final

from ascend_dsa.facts.chips import CHIPS
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.facts.kv_formats import KvFormat, Mode
from ascend_dsa.lang import Lang, Text
from ascend_dsa.models.design_point import SHIPPED_DESIGN, KvCache
from ascend_dsa.models.roofline import REPORT_HEADS, REPORT_TOPK
from ascend_dsa.render.svg import CAPTION_CLASS, FIGURE_CLASS
from ascend_dsa.render.trace_compare import MAX_TRACE_BYTES
from ascend_dsa.report.ledgers import ALL_LEDGERS, LEDGERS
from ascend_dsa.report.rules import CHAPTERS
from ascend_dsa.report.scenarios import SIMULATED_BLOCKS
from ascend_dsa.validate import shown


@dataclass(frozen=True)
class LiveInput:
    """One option of a command as a form input: a text box, a choice or a flag; empty means the command's preset."""

    #: The command-line option without its leading dashes (``l2-bandwidth`` for ``--l2-bandwidth``).
    option: str
    #: The value the form starts with; "" leaves the option out, so the command uses its preset.
    value: str = ""
    #: The preset shown in an empty text box.
    preset: str = ""
    #: For a choice: the values offered ("" first means "not given").
    choices: tuple[str, ...] = ()
    #: A flag (``--sink``): a check box, given when ticked.
    flag: bool = False
    #: A fixed value given every time (the claims' language), not shown.
    hidden: bool = False
    #: For an option that names a file (``--compare TRACE``): the most bytes of the reader's file that live.js reads
    #: (in the browser, never sent anywhere) and writes into Pyodide's file system, whose path it then gives; 0: not
    #: a file.
    file_max_bytes: int = 0
    #: What the input takes, said next to it (a file input's "read here, never sent").
    note: Text | None = None

    def __post_init__(self) -> None:
        """Reject an option spelled with dashes, a start value outside the choices or a file with a start value."""
        if not self.option or self.option.startswith("-"):
            raise ValueError(f"option must be a name without leading dashes, got {shown(self.option)}")
        if self.choices and self.value not in self.choices:
            raise ValueError(f"value must be one of {shown(self.choices)}, got {shown(self.value)}")
        if self.file_max_bytes < 0 or (self.file_max_bytes and (self.value or self.choices or self.flag)):
            raise ValueError(f"a file input takes a positive byte limit and nothing else, got {shown(self)}")

    def html(self, lang: Lang) -> str:
        """The labelled input."""
        name = escape(self.option)
        if self.hidden:
            return f'<input type="hidden" name="{name}" value="{escape(self.value)}">'
        label = f"<code>--{name}</code>"
        note = f" <small>{escape(self.note.in_(lang))}</small>" if self.note is not None else ""
        if self.file_max_bytes:
            # A file dropped on the input is taken as if chosen; live.js reads at most the limit, in the browser.
            return (
                f'<label class="live-file">{label} <input type="file" name="{name}" '
                f'data-live-max-bytes="{self.file_max_bytes}">{note}</label>'
            )
        if self.flag:
            checked = " checked" if self.value else ""
            return f'<label><input type="checkbox" name="{name}"{checked}> {label}</label>'
        if self.choices:
            options = "".join(
                f'<option value="{escape(c)}"{" selected" if c == self.value else ""}>'
                f"{escape(c) if c else _PRESET.in_(lang)}</option>"
                for c in self.choices
            )
            return f'<label>{label} <select name="{name}">{options}</select></label>'
        preset = f' placeholder="{escape(self.preset)}"' if self.preset else ""
        return (
            f'<label>{label} <input type="text" name="{name}" value="{escape(self.value)}"{preset} '
            'inputmode="decimal" autocomplete="off" spellcheck="false"></label>'
        )


_PRESET: Final = Text("（预设）", "(preset)")


def _numbers(values: tuple[int, ...]) -> str:
    return ",".join(str(v) for v in values)


#: The hardware overrides' inputs (`ascend_dsa.cli.options.add_hardware_options`), the Ascend 950's values as presets.
_HARDWARE_INPUTS: Final = (
    LiveInput("l2-bandwidth", preset=f"{ASCEND_950.bandwidth_bytes_per_s:g}"),
    LiveInput("cores", preset=str(ASCEND_950.cores)),
    LiveInput("clock", preset=f"{ASCEND_950.clock_hz:g}"),
    LiveInput("cube-fma", preset=str(ASCEND_950.matrix_fma_per_cycle_per_core)),
)
#: The kernel instantiation's inputs (`ascend_dsa.cli.options.add_instantiation_options`), the shipped kernel's values.
_INSTANTIATION_INPUTS: Final = (
    LiveInput("b-topk", value=str(SHIPPED_KERNEL.b_topk)),
    LiveInput("index-block-size", value=str(SHIPPED_KERNEL.index_block_size)),
    LiveInput("vector-cores", value=str(SHIPPED_KERNEL.vector_cores_per_cube), choices=("1", "2")),
    LiveInput("heads", value=str(SHIPPED_KERNEL.heads_per_core)),
)

#: The what-ifs a page can run live: command -> its inputs, in the order of the command's --help.
LIVE_FORMS: Final = {
    "head-roofline": (
        LiveInput("heads", value=_numbers(REPORT_HEADS)),
        LiveInput("topk", value=_numbers(REPORT_TOPK)),
        LiveInput("chip", value=next(iter(CHIPS)), choices=tuple(CHIPS)),
        LiveInput("kv-token-bytes"),
        *_HARDWARE_INPUTS,
        LiveInput("balanced-within"),
        LiveInput("assert-report", flag=True),
    ),
    "ub-plan": (
        LiveInput("mode", value=Mode.PREFILL.value, choices=tuple(m.value for m in Mode)),
        LiveInput("main-cache", choices=("", *(f.value for f in KvFormat))),
        LiveInput("fp4-extra", flag=True),
        LiveInput("sink", flag=True),
        *_INSTANTIATION_INPUTS,
    ),
    "pipeline": (
        LiveInput("mode", value=Mode.PREFILL.value, choices=tuple(m.value for m in Mode)),
        LiveInput("main-cache", choices=("", *(f.value for f in KvFormat))),
        LiveInput("topk"),
        LiveInput("blocks", preset=str(SIMULATED_BLOCKS)),
        LiveInput("rescale-every-block", flag=True),
        *_INSTANTIATION_INPUTS,
        *_HARDWARE_INPUTS,
        LiveInput(
            "compare",
            file_max_bytes=MAX_TRACE_BYTES + 1,  # one byte over the cap, so the command sees the file is too big
            note=Text(
                "拖入 msprof 的 trace.json 或 op summary：只在浏览器里读取，不发送到任何地方",
                "drop an msprof trace.json or op summary here: it is read in your browser and sent nowhere",
            ),
        ),
    ),
    "claims": (
        LiveInput("source", choices=("", *LEDGERS, ALL_LEDGERS)),
        LiveInput("chapter", choices=("", *CHAPTERS)),
        *_HARDWARE_INPUTS,
        LiveInput("fixpipe-rate", preset=str(ASCEND_950.ascend.fixpipe_bytes_per_cycle_1c1v)),
        LiveInput("b-topk", preset=str(SHIPPED_KERNEL.b_topk)),
        LiveInput("heads-per-core", preset=str(SHIPPED_KERNEL.heads_per_core)),
    ),
    "design-point": (
        LiveInput("topk", value=str(SHIPPED_DESIGN.topk)),
        LiveInput("kv-cache", value=SHIPPED_DESIGN.kv_cache.value, choices=tuple(c.value for c in KvCache)),
        LiveInput("sink", flag=True),
        LiveInput("b-topk", value=str(SHIPPED_DESIGN.b_topk)),
        LiveInput("index-block-size", value=str(SHIPPED_DESIGN.index_block_size)),
        LiveInput("vector-cores", value=str(SHIPPED_DESIGN.vector_cores), choices=("1", "2")),
        LiveInput("heads", value=str(SHIPPED_DESIGN.heads_per_core)),
        *_HARDWARE_INPUTS,
    ),
}
_REDRAWN: Final = "the form gives --svg - itself, to redraw the figure next to it (LIVE_FIGURES)"
#: The options a form leaves out on purpose, with the reason; every other option of its command has an input
#: (``--help`` aside, and ``--lang``, which the form gives as the page's).
OMITTED_OPTIONS: Final = {
    "ub-plan": {
        "chip": "the UB plan is the Ascend 950 kernel's: ub-plan refuses any other chip, so there is nothing to choose",
        "svg": _REDRAWN,
    },
    "head-roofline": {"svg": _REDRAWN},
    "pipeline": {
        "trace": "it writes a file on the reader's disk, which a page cannot; the figure above shows the same schedule",
        "svg": _REDRAWN,
    },
}
#: Commands whose form also redraws a figure of the page: each accepts ``--svg -`` and then prints only the SVG
#: element its build-time figure function returns for the same options (and a newline). The page holds that figure
#: in a [`live_figure`][] container; on every change live.js runs the form's command line again with ``--svg -`` and
#: puts what it prints in the container, when the command exits 0.
LIVE_FIGURES: Final = frozenset({"pipeline", "head-roofline", "ub-plan"})

_START: Final = Text("在浏览器里运行", "Run live")
#: Where the form states how much a click downloads: the site fills it at build time from the real sizes of the files
#: live.js fetches (``ascend_dsa.site.live.with_download_size``); left empty, the sentence still reads.
DOWNLOAD_SIZE_SLOT: Final = '<span data-live-size=""></span>'
_ABOUT: Final = Text(
    "点一下，本页就在你的浏览器里运行同一个包的命令行（Python 编译成 WebAssembly，从本站下载{size}，"
    "不访问其他网站）；之后改任一输入，输出立即重算。",
    "One click runs the same package's command line in your browser (Python compiled to WebAssembly,{size} "
    "downloaded from this site, no other host asked); then every change of an input recomputes the output.",
)
#: What the form's status line says, in both languages: live.js reads each from a ``data-live-*`` attribute.
_STATUS: Final = {
    "loading": Text("正在下载并启动 Python……", "Downloading and starting Python..."),
    "importing": Text("正在载入 ascend_dsa……", "Loading ascend_dsa..."),
    "ready": Text("已就绪：输出与同样选项下命令行的输出一致。", "Ready: the output is what the command prints."),
    "failed": Text(
        "无法在浏览器里运行，上面的表格仍是构建时的结果：", "Cannot run live; the tables above are the build's:"
    ),
}


def live_form_anchor(command: str) -> str:
    """The id of ``command``'s form on its page (``live-head-roofline``): what an exercise's live link points at."""
    return f"live-{command}"


def render_live_form(command: str, *, lang: Lang = "zh") -> str:
    """A "Run live" form for ``ascend-dsa COMMAND``: a button, then its options as inputs and its output."""
    if command not in LIVE_FORMS:
        raise ValueError(f"command must be one of {', '.join(LIVE_FORMS)}, got {shown(command)}")
    # Every command speaks both languages (--lang): the form gives the page's, hidden, so output and errors match it.
    inputs = [LiveInput("lang", value=lang, hidden=True), *LIVE_FORMS[command]]
    messages = " ".join(f'data-live-{key}="{escape(text.in_(lang))}"' for key, text in _STATUS.items())
    if command in LIVE_FIGURES:
        messages += " data-live-draws"
    fields = "\n".join(item.html(lang) for item in inputs)
    return (
        # Out of the search index: option names (--sink, --heads) on a form answer no reader's query.
        f'<form class="live-form" id="{live_form_anchor(command)}" data-live="{command}" data-search-exclude '
        f"{messages}>\n"
        f'<p><button type="button" class="md-button" data-live-start>{escape(_START.in_(lang))}</button> '
        f"<small>{escape(_ABOUT.in_(lang)).format(size=DOWNLOAD_SIZE_SLOT)}</small></p>\n"
        '<p data-live-status role="status" hidden><span></span> <progress max="3" value="0"></progress></p>\n'
        f"<fieldset hidden><legend><code>ascend-dsa {command}</code></legend>\n{fields}\n</fieldset>\n"
        '<p class="live-error" data-live-error role="alert" hidden></p>\n'
        '<pre class="live-output" data-live-output hidden></pre>\n'
        "</form>"
    )


def live_figure(command: str, svg: str, *, caption: str) -> str:
    """A page's figure that ``command``'s live form redraws, with ``caption`` under it, which stays.

    ``svg`` is the build-time figure, in the container live.js fills with what ``ascend-dsa COMMAND ... --svg -``
    prints.
    """
    if command not in LIVE_FIGURES:
        raise ValueError(f"command must be one of {', '.join(sorted(LIVE_FIGURES))}, got {shown(command)}")
    if not svg.startswith("<svg") or not caption.strip():
        raise ValueError(f"svg must be an <svg> element and caption a text, got {shown(svg[:30])}, {shown(caption)}")
    return (
        f'<div class="{FIGURE_CLASS}" tabindex="0"><div class="live-figure" data-live-figure="{escape(command)}">'
        f'{svg}</div><div class="{CAPTION_CLASS}">{escape(caption.strip())}</div></div>'
    )
