"""The pipeline model's validation boundary: what it includes, what it leaves out, and how to check it on a chip.

[`VALIDATION_BOUNDARY`][] lists each thing the model of ``models.pipeline`` includes and each it leaves out, with the
direction an omission moves the model's bound (optimistic: the model is faster than the chip; pessimistic: slower)
and the place in our code where the simplification lives, a [`CodeAnchor`][] whose file and line are read from the
source when a page is built, so a moved line never leaves a stale citation.
[`COLLECTION_STEPS`][] says how someone with CANN and an Ascend chip collects a measurement ``ascend-dsa pipeline
--compare`` reads, each step citing the Huawei document its command comes from.

Imports: the leaves; the modules an anchor names are read as source, not imported.
"""

from __future__ import annotations

import ast
import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ascend_dsa.lang import Text
from ascend_dsa.validate import Choice, require_instance, shown


class ErrorDirection(Choice):
    """Which way an omission moves the model's bound from what a chip does."""

    OPTIMISTIC = "optimistic"  # the model is faster than the chip: its bound is too high
    PESSIMISTIC = "pessimistic"  # the model is slower than the chip: its bound is too low
    EITHER = "either"  # an assumed rate: too high or too low, we cannot tell which


#: Each direction in words, for the tables.
DIRECTION_WORDS: Final = {
    ErrorDirection.OPTIMISTIC: Text("乐观", "optimistic"),
    ErrorDirection.PESSIMISTIC: Text("悲观", "pessimistic"),
    ErrorDirection.EITHER: Text("都可能", "either way"),
}


@dataclass(frozen=True)
class CodeAnchor:
    """A place in the package's source: a module, a name defined in it, and text on the line to point at.

    ``name`` is a top-level name or ``Class.attr``; ``needle``, when given, picks the line of that definition holding
    it (a cost inside ``stage_costs``), else the definition's first line.
    """

    module: str
    name: str
    needle: str = ""

    def __post_init__(self) -> None:
        """Reject an anchor outside the package or with an empty name."""
        if not self.module.startswith("ascend_dsa.") or not self.name:
            raise ValueError(f"an anchor must name a module of ascend_dsa and a name in it, got {shown(self)}")

    @property
    def path(self) -> str:
        """The module's file as the repository names it: ``src/ascend_dsa/models/pipeline.py``."""
        return "src/" + self.module.replace(".", "/") + ".py"

    def line(self) -> int:
        """The line the anchor points at, read from the module's source now (ValueError when it is gone)."""
        spec = importlib.util.find_spec(self.module)
        if spec is None or spec.origin is None:
            raise ValueError(f"module {self.module!r} of anchor {self.name!r} cannot be found")
        source = Path(spec.origin).read_text(encoding="utf-8")
        node = _definition(ast.parse(source).body, self.name.split("."))
        if node is None:
            raise ValueError(f"{self.module} defines no {self.name!r}; expected a top-level name (or Class.attr)")
        if not self.needle:
            return node.lineno
        lines = source.splitlines()
        for number in range(node.lineno, (node.end_lineno or node.lineno) + 1):
            if self.needle in lines[number - 1]:
                return number
        raise ValueError(f"{self.module}.{self.name} has no line with {self.needle!r}")

    def where(self) -> str:
        """``src/ascend_dsa/models/pipeline.py:290``: the file and line, as a citation prints them."""
        return f"{self.path}:{self.line()}"


def _definition(body: list[ast.stmt], names: list[str]) -> ast.stmt | None:
    """The statement of ``body`` that defines ``names[0]`` (a def, a class, an assignment), then the rest inside it."""
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            defined = [node.name]
        elif isinstance(node, ast.Assign):
            defined = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            defined = [node.target.id]
        else:
            continue
        if names[0] in defined:
            if len(names) == 1:
                return node
            return _definition(node.body, names[1:]) if isinstance(node, ast.ClassDef) else None
    return None


@dataclass(frozen=True)
class BoundaryEntry:
    """One thing the model includes, or leaves out with the direction that moves its bound and why."""

    key: str
    title: Text
    model: Text  # what the model does about it
    anchor: CodeAnchor
    direction: ErrorDirection | None = None  # None: the model includes it
    why: Text | None = None  # why the omission errs that way

    def __post_init__(self) -> None:
        """Reject an omission without both a direction and a reason, and an inclusion with either."""
        require_instance("anchor", self.anchor, CodeAnchor)
        if self.direction is not None:
            require_instance("direction", self.direction, ErrorDirection)
        if (self.direction is None) != (self.why is None):
            raise ValueError(
                f"entry {self.key!r} must give a direction of error and why together (an omission) or neither "
                f"(an inclusion), got direction {shown(self.direction)} and why {shown(self.why)}"
            )

    @property
    def included(self) -> bool:
        """Whether the model includes it (an entry without a direction of error)."""
        return self.direction is None


_PIPELINE: Final = "ascend_dsa.models.pipeline"

#: What the pipeline model includes, then what it leaves out, each with the code that makes the simplification.
VALIDATION_BOUNDARY: Final = (
    BoundaryEntry(
        "cube-rate",
        Text("CUBE 的矩阵乘", "The CUBE's matrix products"),
        Text(
            "QK 与 SV 按每周期乘加数满速计算，周期数由硬件参数推出",
            "QK and SV at the full FMA rate per cycle, cycles derived from the hardware preset",
        ),
        CodeAnchor(_PIPELINE, "stage_costs", "Task.QK: m * b"),
    ),
    BoundaryEntry(
        "in-order-units",
        Text("按序发射与依赖", "In-order issue and dependencies"),
        Text(
            "每个单元按程序顺序发射（报告第 206 行），任务在输入与缓冲就绪时开始",
            "every unit issues in program order (report (zh) line 206), a task starts when its inputs and buffer "
            "are ready",
        ),
        CodeAnchor(_PIPELINE, "_simulate", "start = max("),
    ),
    BoundaryEntry(
        "buffer-rings",
        Text("缓冲的深度", "Buffer depths"),
        Text(
            "UB 的 KV 缓冲、index 缓冲、L1 的 KV 缓冲和唯一的 S 缓冲按源码常量限制写入方",
            "the UB KV, index and L1 KV rings and the single S buffer hold writers back as the kernel's constants say",
        ),
        CodeAnchor(_PIPELINE, "_program", "Task.KV_TO_L1:"),
    ),
    BoundaryEntry(
        "padded-rows",
        Text("MMA 的行数", "MMA rows"),
        Text(
            "head 数向上取整到 MMA 行的整粒度（config.h:28），各单元的工作按行数计",
            "heads are rounded up to whole granules of MMA rows (config.h:28), and every unit works on the rows",
        ),
        CodeAnchor("ascend_dsa.facts.kernel_config", "KernelConfig.mma_m"),
    ),
    BoundaryEntry(
        "l2-caches",
        Text("L2 的命中与缓存", "L2 hits and caching"),
        Text(
            "每个 gather 的字节都按本 AI Core 分到的 L2 带宽搬入，不管命中、替换和 AI Core 之间的复用",
            "every gathered byte streams at the AI Core's even share of L2 bandwidth; hits, evictions and reuse "
            "across AI Cores are not modelled",
        ),
        CodeAnchor(_PIPELINE, "stage_costs", "Task.GATHER: b *"),
        ErrorDirection.OPTIMISTIC,
        Text(
            "缺失要等待，模型里的 MTE2 从不等待；只在其他 AI Core 闲着、把带宽让出来时才会反过来",
            "a miss makes MTE2 wait, and the model's MTE2 never waits on one; only idle neighbours lending their "
            "bandwidth would turn it",
        ),
    ),
    BoundaryEntry(
        "hbm-behind-l2",
        Text("L2 后面的 HBM", "HBM behind L2"),
        Text(
            "KV cache 全部按 L2 的带宽读取，HBM 的带宽与延迟不出现",
            "the whole KV cache is read at L2 bandwidth; HBM's bandwidth and latency never appear",
        ),
        CodeAnchor("ascend_dsa.facts.hardware", "ChipSpec.bandwidth_bytes_per_cycle_per_core"),
        ErrorDirection.OPTIMISTIC,
        Text(
            "长上下文的 KV 放不进 L2，要从更慢的 HBM 读",
            "a long context's KV does not fit in L2 and comes from the slower HBM",
        ),
    ),
    BoundaryEntry(
        "mte2-requests",
        Text("MTE2 请求的延迟与队列", "MTE2 request latency and queue"),
        Text(
            "gather 只按字节数与带宽计时，不计每个请求的延迟和 Issue Queue 的深度",
            "a gather is timed by its bytes over bandwidth alone, without each request's latency or the issue "
            "queue's depth",
        ),
        CodeAnchor(_PIPELINE, "stage_costs", "Task.GATHER: b *"),
        ErrorDirection.OPTIMISTIC,
        Text(
            "每个请求只搬 burst_count 个 token，队列满时 MTE2 要等，延迟藏不住时带宽用不满",
            "each request moves only burst_count tokens; with a full queue MTE2 stalls and bandwidth goes unused",
        ),
    ),
    BoundaryEntry(
        "bank-conflicts",
        Text("UB 与 L1 的 bank 冲突", "UB and L1 bank conflicts"),
        Text(
            "VECTOR 与 MTE3 按假设的满速读写，没有 bank 冲突",
            "VECTOR and MTE3 read and write at their assumed full rate, with no bank conflicts",
        ),
        CodeAnchor("ascend_dsa.facts.assumptions", "VECTOR_BYTES_PER_CYCLE"),
        ErrorDirection.OPTIMISTIC,
        Text(
            "冲突只会让一次访问分成几拍（报告的优化一节为此 pad 一行、配平 L1 的 bank）",
            "a conflict only splits an access into more beats (the report pads a row and balances L1's banks for it)",
        ),
    ),
    BoundaryEntry(
        "scalar-and-sync",
        Text("标量核与同步", "The scalar core and synchronisation"),
        Text(
            "skip-scale 标志这一步不发任何任务；单元之间的交接（flag、事件）不花周期",
            "the skip-scale flag step issues no task, and hand-offs between units (flags, events) take no cycles",
        ),
        CodeAnchor(_PIPELINE, "_STAGE_TASKS", '"skip-scale-flag"'),
        ErrorDirection.OPTIMISTIC,
        Text(
            "标量核要等 VF 的结果才能写 SS buffer（报告第 204 行），每次交接都有延迟",
            "the scalar core waits for the VF before it writes the SS buffer (report (zh) line 204), and every "
            "hand-off has a latency",
        ),
    ),
    BoundaryEntry(
        "launch-and-ends",
        Text("启动、首尾与核间不均", "Launch, a job's ends and imbalance"),
        Text(
            "上限取稳态的每块周期，离开 job 的首尾；不计 kernel 启动、Q 的载入和 AI Core 之间的负载不均",
            "the bound is the steady period away from a job's ends; kernel launch, loading Q and load imbalance "
            "between AI Cores are left out",
        ),
        CodeAnchor(_PIPELINE, "_steady_window"),
        ErrorDirection.OPTIMISTIC,
        Text(
            "这些都只会加时间，最慢的 AI Core 决定整个 kernel 的结束",
            "each only adds time, and the slowest AI Core ends the kernel",
        ),
    ),
    BoundaryEntry(
        "icache",
        Text("指令缓存", "Instruction caches"),
        Text("没有取指：指令从不缺失", "no instruction fetch: instructions never miss"),
        CodeAnchor(_PIPELINE, "stage_costs"),
        ErrorDirection.OPTIMISTIC,
        Text(
            "报告专门讲了 icache miss（第 238 行），每次缺失都让一条流水线停下",
            "the report spends a section on icache misses (report (zh) line 238); each one stalls a pipe",
        ),
    ),
    BoundaryEntry(
        "rescale",
        Text("O 的 rescale", "Rescaling O"),
        Text(
            "默认没有块触发 rescale（`--rescale-every-block` 则每块都触发）",
            "by default no block rescales (with `--rescale-every-block` every block does)",
        ),
        CodeAnchor(_PIPELINE, "simulate"),
        ErrorDirection.OPTIMISTIC,
        Text(
            "真实数据偶尔会触发 rescale，多出 FixPipe 与 VECTOR 的工作；每块都触发则是悲观的另一端",
            "real scores rescale now and then, adding FixPipe and VECTOR work; every block is the pessimistic end",
        ),
    ),
    BoundaryEntry(
        "assumed-rates",
        Text("VECTOR、MTE3 与 FixPipe 的速率", "VECTOR, MTE3 and FixPipe rates"),
        Text(
            "报告没给这些速率，模型用标明的假设（假设页列出每一条）",
            "the report gives none of these rates; the model uses stated assumptions (listed on the assumptions page)",
        ),
        CodeAnchor("ascend_dsa.facts.assumptions", "VECTOR_RATE"),
        ErrorDirection.EITHER,
        Text(
            "假设可能高估也可能低估；CUBE 满载时它们只有超过 CUBE 的周期才会影响上限",
            "an assumption may be high or low; while the CUBE is saturated it moves the bound only once a unit's "
            "work exceeds the CUBE's",
        ),
    ),
    BoundaryEntry(
        "twin-vector-cores",
        Text("VECTOR Core 彼此一样", "Identical VECTOR Cores"),
        Text(
            "每个 VECTOR Core 同时做同样的工作，一行代表全部",
            "the VECTOR Cores do the same work at the same time, and one row stands for all",
        ),
        CodeAnchor(_PIPELINE, "stage_costs", "per_core_kv ="),
        ErrorDirection.OPTIMISTIC,
        Text(
            "真实的各个核会彼此错开，CUBE 要等最慢的那个",
            "real cores drift apart, and the CUBE waits for the slowest",
        ),
    ),
)


@dataclass(frozen=True)
class Document:
    """A document a step is taken from: its title and its address."""

    title: str
    url: str

    def __post_init__(self) -> None:
        """Reject a document without a title or an https address."""
        if not self.title or not self.url.startswith("https://"):
            raise ValueError(f"a document needs a title and an https address, got {shown(self)}")


@dataclass(frozen=True)
class CollectionStep:
    """One step of collecting a measurement on a chip: what to do, the command (or none), the documents it is from."""

    what: Text
    command: str
    documents: tuple[Document, ...]

    def __post_init__(self) -> None:
        """Reject a step that cites no document."""
        if not self.documents:
            raise ValueError(f"a collection step must cite the document it is from, got {shown(self)}")
        for document in self.documents:
            require_instance("document", document, Document)


_SIMULATOR_GUIDE: Final = Document(
    "msOpProf Simulator Mode User Guide",
    "https://gitcode.com/Ascend/msopprof/blob/master/docs/en/user_guide/msopprof_simulator_user_guide.md",
)
_SIMULATOR_DATA: Final = Document(
    "msopprof Simulator Mode Performance Data",
    "https://gitcode.com/Ascend/msopprof/blob/master/docs/en/user_guide/msopprof_simulator_performance_data.md",
)
_PROFILING_GUIDE: Final = Document(
    "CANN application development: Collecting and Parsing Profile Data",
    "https://www.hiascend.com/document/detail/en/canncommercial/800/appdevg/aclcppdevg/aclcppdevg_000111.html",
)
_OP_SUMMARY: Final = Document(
    "CANN profiling: op_summary (Operator Details)",
    "https://www.hiascend.com/document/detail/en/canncommercial/850/devaids/profiling/atlasprofiling_16_0067.html",
)

#: From a built kernel to ``--compare``: the op simulator's trace first, then a run on the chip.
COLLECTION_STEPS: Final = (
    CollectionStep(
        Text(
            "装好 CANN Toolkit 并设好它的环境变量；按指南查出芯片的 SoC 型号，作为 `--soc-version` 的值",
            "Install the CANN Toolkit and set its environment variables; look up the chip's SoC type as the guide "
            "describes, for `--soc-version`",
        ),
        "",
        (_SIMULATOR_GUIDE,),
    ),
    CollectionStep(
        Text(
            "在算子仿真器上运行调用 kernel 的程序（这里叫 `./main`），仿真结果写到 `--output` 目录",
            "Run the program that launches the kernel (`./main` here) on the op simulator, writing to an `--output` "
            "directory",
        ),
        "msprof op simulator --soc-version=<SoC type> --output=./sim ./main",
        (_SIMULATOR_GUIDE, _SIMULATOR_DATA),
    ),
    CollectionStep(
        Text(
            "每个核的流水线图在 `OPPROF_{timestamp}_XXX/simulator/` 下按核分目录"
            "（`core*.cubecore*`、`core*.veccore*`），各有一个 `trace.json`；"
            "所有核的汇总 `trace.json` 在 `simulator/` 目录下",
            "Each core's pipeline chart is a `trace.json` in its own directory under "
            "`OPPROF_{timestamp}_XXX/simulator/` (`core*.cubecore*`, `core*.veccore*`); the summary `trace.json` of "
            "all cores is in `simulator/` itself",
        ),
        "ls ./sim/OPPROF_*/simulator/",
        (_SIMULATOR_DATA,),
    ),
    CollectionStep(
        Text(
            "用与仿真相同的输入（`--mode`、`--topk`、`--heads` 等选项）比较模型与汇总的 trace（或某一个核的 trace）",
            "Compare the model, given the simulation's inputs (`--mode`, `--topk`, `--heads` and the other "
            "options), with the summary trace (or one core's)",
        ),
        "ascend-dsa pipeline --compare ./sim/OPPROF_*/simulator/trace.json",
        (_SIMULATOR_DATA,),
    ),
    CollectionStep(
        Text(
            "在芯片上采集同一个程序：msprof 采集并解析，结果在 `--output` 下的 `PROF_XXX/mindstudio_profiler_output/`",
            "On the chip, profile the same program: msprof collects and parses into "
            "`PROF_XXX/mindstudio_profiler_output/` under `--output`",
        ),
        "msprof --output=./prof ./main",
        (_PROFILING_GUIDE,),
    ),
    CollectionStep(
        Text(
            "`op_summary_*.csv` 每次 launch 一行，`Task Duration` 一列是它在芯片上的耗时；用它比较模型的一个 job"
            "（同样的输入）",
            "`op_summary_*.csv` holds a row per launch, its `Task Duration` the time it took on the chip; compare the "
            "model's job (for the same inputs) with it",
        ),
        "ascend-dsa pipeline --compare ./prof/PROF_*/mindstudio_profiler_output/op_summary_*.csv",
        (_PROFILING_GUIDE, _OP_SUMMARY),
    ),
)
