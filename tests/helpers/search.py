"""The queries a reader types into the site's search, per edition, and the chapters that may come first."""

from __future__ import annotations

#: What a reader types, and the chapters that may come first, in the browser's real search
#: (tests/site/test_browser.py; tests/site/test_search.py checks each names a built chapter).
#: Two chapters are allowed where both treat the word equally (反量化 is a reason in one, a step in the other).
_ONE_VECTOR = "discussion/one-vector-core"
_KV_LAYOUT = "optimizations/kv-cache-layout"
BROWSER_QUERIES = {
    "算存比": ("discussion/heads-per-core",),
    "流水线": ("pipeline",),
    "反量化": (_ONE_VECTOR, _KV_LAYOUT),
    "双 bank": ("optimizations/l1-banks",),
    "FixPipe": (_ONE_VECTOR,),
    "一个 VECTOR 核": (_ONE_VECTOR,),
    "累加器": ("discussion/accumulator",),
    "设计空间": ("design",),
    "可行域": ("design",),
    "指令缓存": ("optimizations/icache",),
    "gather2": ("optimizations/gather2",),
    "数字核对总表": ("reference/claims",),
    "假设": ("reference/assumptions",),
    "命令行": ("reference/cli",),
    "分块": ("algorithm/flow",),
    "L1 bank": ("optimizations/l1-banks",),
    "KV Cache": (_KV_LAYOUT,),
    "page block": (_KV_LAYOUT,),
    "UB 预算": ("design",),
    "握手": ("discussion/skip-scale-sync",),
    "1C1V": (_ONE_VECTOR,),
    "前言": ("",),
    "数学建模": ("algorithm/model",),
    "计算流程": ("algorithm/flow",),
    "量化误差": (_KV_LAYOUT,),
    "icache miss": ("optimizations/icache",),
    "bank 冲突": ("optimizations/fast-nd2nz",),
    "FP8 layout": (_KV_LAYOUT,),
    "MTE2 队列": (_ONE_VECTOR, "optimizations/gather2"),
    "skip-scale 同步": ("discussion/skip-scale-sync",),
    "q head": ("discussion/heads-per-core",),
    "乒乓": ("algorithm/double-buffering",),
    "屋脊点": ("algorithm/roofline",),
    "分形": ("algorithm/nd-nz",),
}
#: The same for the English edition (chapters relative to en/); inflected forms find their stems' chapters.
EN_BROWSER_QUERIES = {
    "pipeline": ("pipeline",),
    "pipelining": ("pipeline",),
    "accumulator": ("discussion/accumulator",),
    "accumulators": ("discussion/accumulator",),
    "dequantization": (_ONE_VECTOR, _KV_LAYOUT),
    "dequantisation": (_ONE_VECTOR, _KV_LAYOUT),
    "synchronised": ("discussion/skip-scale-sync",),
    "synchronization": ("discussion/skip-scale-sync",),
    "roofline": ("discussion/heads-per-core", "algorithm/roofline"),
    "FixPipe": (_ONE_VECTOR,),
    "layouts": ("discussion/nd2nz-when", _KV_LAYOUT),
    "bank conflict": ("optimizations/fast-nd2nz",),
    "FP8 layout": (_KV_LAYOUT,),
    "gather2": ("optimizations/gather2",),
    "icache": ("optimizations/icache",),
    "instruction cache": ("optimizations/icache",),
    "L1 banks": ("optimizations/l1-banks",),
    "design space": ("design",),
    "what if": ("design/what-if",),
    "claims ledger": ("reference/claims",),
    "assumptions": ("reference/assumptions",),
    "command line": ("reference/cli",),
    "heads per core": ("discussion/heads-per-core",),
    "1C1V": (_ONE_VECTOR,),
    "UB budget": ("design",),
    "page block": (_KV_LAYOUT,),
    "MTE2 queue": (_ONE_VECTOR, "optimizations/gather2"),
    "quantised": (_KV_LAYOUT,),
    "compute-to-memory ratio": ("discussion/heads-per-core",),
    "handshake": ("discussion/skip-scale-sync",),
    "KV cache": (_KV_LAYOUT,),
    "padded row": ("optimizations/fast-nd2nz",),
    "feasible region": ("design",),
    # The model defines the sink (as `attn_sink`, one token to the English index); the design page sizes every UB
    # plan with and without one: both hold "sink" as often, in text only.
    "sinks": ("algorithm/model", "design"),
    "ping-pong": ("algorithm/double-buffering",),
    "ridge point": ("algorithm/roofline",),
    "fractal": ("algorithm/nd-nz",),
}

#: Questions as readers ask them (not chapter titles), and the chapters that answer them; the browser test prints,
#: per edition, the share that find such a chapter first and the misses. The aim is `QUESTION_HIT_RATE`; the test
#: asserts `QUESTION_FLOOR`, the share reached without text that names the questions on the pages (raise it as
#: they come): 92 % of the Chinese and 90 % of the English questions find an answering chapter first (glossary terms
#: weigh as headings on the chapter that defines them, a heading's synonyms as the heading).
QUESTION_HIT_RATE = 0.9
QUESTION_FLOOR = 0.9
_FLOW = "algorithm/flow"
_MODEL = "algorithm/model"
_HEADS = "discussion/heads-per-core"
_ACCUMULATOR = "discussion/accumulator"
_ND2NZ_WHEN = "discussion/nd2nz-when"
_SYNC = "discussion/skip-scale-sync"
_SKIP = "optimizations/skip-scale"
_FAST_ND2NZ = "optimizations/fast-nd2nz"
_GATHER2 = "optimizations/gather2"
_L1 = "optimizations/l1-banks"
#: The roofline primer (written after these questions) states the chip's peak and which side of the ridge the
#: kernel's head counts fall: it answers the peak and the compute- or memory-bound questions as the preface and the
#: heads-per-core chapter do.
_ROOFLINE = "algorithm/roofline"
#: The double-buffering primer explains the idea; the chapters use it (buffer depths in pipeline, l1-banks, design).
_BUFFERS = ("algorithm/double-buffering", "pipeline", _L1, "design")
BROWSER_QUESTIONS = {
    "为什么要两个 VECTOR 核": (_ONE_VECTOR,),
    "UB 不够怎么办": ("design",),
    "双缓冲": _BUFFERS,
    "乒乓缓冲": _BUFFERS,
    "每个核放几个 head": (_HEADS,),
    "累加器放在哪里": (_ACCUMULATOR,),
    "为什么不能只用一个 VECTOR 核": (_ONE_VECTOR,),
    "峰值算力是多少": ("", _ROOFLINE),
    "算力利用率有多高": ("",),
    "访存瓶颈在哪里": (_HEADS, "design"),
    "为什么要分块计算": (_FLOW,),
    "online softmax 怎么算": (_FLOW,),
    "什么时候需要 rescale": (_FLOW, _SKIP),
    "rescale 多久发生一次": (_SKIP,),
    "skip-scale 能省多少": (_SKIP,),
    "CUBE 和 VECTOR 怎么同步": (_SYNC, "pipeline"),
    "SS buffer 是什么": (_SYNC,),
    "为什么要转成 NZ 格式": (_ND2NZ_WHEN,),
    "为什么不在搬进 L1 时转换": (_ND2NZ_WHEN,),
    "怎么消除 bank 冲突": (_FAST_ND2NZ,),
    "为什么多 pad 一行": (_FAST_ND2NZ,),
    "一个请求怎么搬两个 token": (_GATHER2,),
    "MTE2 队列满了怎么办": (_GATHER2, _ONE_VECTOR),
    "指令缓存有多大": ("optimizations/icache",),
    "怎么减小代码体积": ("optimizations/icache",),
    "L1 的两个 bank 怎么用": (_L1,),
    "每个 bank 用了多少 L1": (_L1,),
    "decode 的 KV cache 存了什么": (_KV_LAYOUT,),
    "FP8 的 scale 放在哪": (_KV_LAYOUT,),
    "量化误差有多大": (_KV_LAYOUT,),
    "算子是算力受限还是带宽受限": (_HEADS, "design", _ROOFLINE),
    "哪个限制先到": ("design",),
    "L2 带宽减半会怎样": ("design/what-if",),
    "流水线怎么藏住 softmax": ("pipeline",),
    "CUBE 什么时候等待": ("pipeline",),
    "流水线为什么这么复杂": ("pipeline",),
    "昇腾和 H800 比怎么样": ("discussion/two-chips",),
    "Hopper 上的 FlashMLA": ("discussion/two-chips",),
    "FixPipe 的带宽够不够": (_ONE_VECTOR,),
    "O 放在 L0C 还是 UB": (_ACCUMULATOR,),
    "L0C 装得下吗": (_ACCUMULATOR,),
    "head 数翻倍会怎样": (_ACCUMULATOR, _HEADS),
    "数字是怎么核对的": ("reference/claims",),
    "有哪些假设": ("reference/assumptions",),
    "命令行怎么用": ("reference/cli",),
    "AI Core 里有哪些单元": (_MODEL, "reference/glossary"),
    "打分矩阵 P 是什么": (_MODEL,),
    "分块实现和朴素实现一致吗": (_FLOW,),
    "每个核分到多少 L2 带宽": (_HEADS, "design"),
    "反量化吞吐": (_ONE_VECTOR,),
}
EN_BROWSER_QUESTIONS = {
    "why two vector cores": (_ONE_VECTOR,),
    "how many heads per core": (_HEADS,),
    "where does the accumulator live": (_ACCUMULATOR,),
    "why not use one vector core": (_ONE_VECTOR,),
    "what is the peak TFLOPS": ("", _ROOFLINE),
    "what fraction of peak does prefill reach": ("",),
    "how does online softmax work": (_FLOW,),
    "why process KV in blocks": (_FLOW,),
    "when is the output rescaled": (_FLOW, _SKIP),
    "how often does the rescale happen": (_SKIP,),
    "what does skip-scale save": (_SKIP, _SYNC),
    "how do the CUBE and VECTOR cores synchronise": (_SYNC, "pipeline"),
    "what is the SS buffer": (_SYNC,),
    "why convert KV to NZ": (_ND2NZ_WHEN,),
    "why not convert the layout while copying into L1": (_ND2NZ_WHEN,),
    "how to avoid bank conflicts": (_FAST_ND2NZ,),
    "why pad one row": (_FAST_ND2NZ,),
    "how to fetch two tokens with one request": (_GATHER2,),
    "the MTE2 queue is full": (_GATHER2, _ONE_VECTOR),
    "how big is the instruction cache": ("optimizations/icache",),
    "how to keep code small": ("optimizations/icache",),
    "why split tensors across L1 banks": (_L1,),
    "how much L1 does each bank use": (_L1,),
    "what is in the decode KV cache": (_KV_LAYOUT,),
    "how are FP8 scales stored": (_KV_LAYOUT,),
    "quantization error of FP8": (_KV_LAYOUT,),
    "is the kernel compute-bound or memory-bound": (_HEADS, "design", _ROOFLINE),
    "which limit binds first": ("design",),
    "does the UB plan fit": ("design",),
    "what if L2 bandwidth is halved": ("design/what-if",),
    "how does the pipeline hide the softmax": ("pipeline",),
    "when does the CUBE wait": ("pipeline",),
    "why is the pipeline so complicated": ("pipeline",),
    "double buffering": _BUFFERS,
    "ping-pong buffers": _BUFFERS,
    "how does Ascend compare with H800": ("discussion/two-chips",),
    "FlashMLA on Hopper": ("discussion/two-chips",),
    "FixPipe bandwidth": (_ONE_VECTOR,),
    "where is O kept during accumulation": (_ACCUMULATOR,),
    "what fits in L0C": (_ACCUMULATOR,),
    "what happens with twice the heads": (_ACCUMULATOR, _HEADS),
    "how are the numbers checked": ("reference/claims",),
    "which numbers are assumed": ("reference/assumptions",),
    "how to run the command line tool": ("reference/cli",),
    "what does each hardware unit do": (_MODEL, "reference/glossary"),
    "what is the score matrix P": (_MODEL,),
    "does the blocked version match the naive one": (_FLOW,),
    "L2 throughput per core": (_HEADS, "design"),
    "dequantization throughput": (_ONE_VECTOR,),
    "memory bottleneck": (_HEADS, "design"),
}
