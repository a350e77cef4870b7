"""argparse's own error messages in Chinese: one catalogue keyed by argparse's msgids, applied to a finished message.

argparse builds each error from a gettext msgid (``'invalid choice: %(value)r (choose from %(choices)s)'``) and
hands the parser only the finished English line. Each msgid here is read as a pattern (its placeholders match any
text), so the finished line is matched back to its msgid and the values it carried are put into the Chinese
sentence unchanged: the option names, the values typed and the choices stay as argparse wrote them. The message
inside ``argument X: ...`` is translated the same way, or kept when it is already ours (the option types speak the
command's language themselves). A line that matches no msgid is returned as it is. Which msgids the running
Python's argparse has, and that each of those a user can meet is here, is a test (tests/cli/test_parser_messages.py).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from ascend_dsa.lang import Text

if TYPE_CHECKING:
    from ascend_dsa.lang import Lang

#: argparse's user-facing msgids (Python 3.11+'s ``argparse.py``, exactly as written there) and their Chinese, with
#: the same placeholders. The message of ``argument %(argument_name)s: %(message)s`` is translated in turn.
ARGPARSE_MESSAGES: Final = (
    Text("参数 %(argument_name)s：%(message)s", "argument %(argument_name)s: %(message)s"),
    Text("无法识别的参数：%s", "unrecognized arguments: %s"),
    Text("缺少必需的参数：%s", "the following arguments are required: %s"),
    Text("参数 %s 之中必须给出一个", "one of the arguments %s is required"),
    Text("无效的值：%(value)r（可选的值有 %(choices)s）", "invalid choice: %(value)r (choose from %(choices)s)"),
    Text("需要一个值", "expected one argument"),
    Text("至多需要一个值", "expected at most one argument"),
    Text("至少需要一个值", "expected at least one argument"),
    Text("需要 %s 个值", "expected %s argument"),
    Text("需要 %s 个值", "expected %s arguments"),
    Text("这个选项不取值，却给了 %r", "ignored explicit argument %r"),
    Text("不能与参数 %s 同时给出", "not allowed with argument %s"),
    Text("有歧义的选项：%(option)s 可以是 %(matches)s", "ambiguous option: %(option)s could match %(matches)s"),
    Text("意外的选项：%s", "unexpected option string: %s"),
    Text("无效的 %(type)s 值：%(value)r", "invalid %(type)s value: %(value)r"),
    Text(
        "未知的子命令 %(parser_name)r（可选的有 %(choices)s）", "unknown parser %(parser_name)r (choices: %(choices)s)"
    ),
    Text("无法打开 '%(filename)s'：%(error)s", "can't open '%(filename)s': %(error)s"),
)

#: A msgid's placeholder: ``%(name)s``, ``%(name)r``, ``%s``, ``%r`` or ``%d``.
_PLACEHOLDER: Final = re.compile(r"%(?:\((\w+)\))?[srd]")
#: The placeholder whose text is a message in turn (``argument X: <message>``).
_NESTED: Final = "message"


def placeholders(msgid: str) -> list[str]:
    """The names of a msgid's placeholders in order; an unnamed one is named by its position (``0``, ``1``...)."""
    return [match.group(1) or str(index) for index, match in enumerate(_PLACEHOLDER.finditer(msgid))]


def _pattern(msgid: str) -> re.Pattern[str]:
    """The msgid as a pattern that matches the finished message, one group (``p<name>``) per placeholder."""
    pattern, end = [], 0
    for name, match in zip(placeholders(msgid), _PLACEHOLDER.finditer(msgid), strict=True):
        pattern += [re.escape(msgid[end : match.start()]), f"(?P<p{name}>.*?)"]
        end = match.end()
    pattern.append(re.escape(msgid[end:]))
    return re.compile("".join(pattern), re.DOTALL)


def _filled(template: str, values: dict[str, str]) -> str:
    """``template`` with each placeholder replaced by the text its twin matched in the English message."""
    names = iter(placeholders(template))
    return _PLACEHOLDER.sub(lambda _match: values[next(names)], template)


_PATTERNS: Final = tuple((_pattern(text.en), text) for text in ARGPARSE_MESSAGES)


def parser_message(message: str, *, lang: Lang) -> str:
    """Argparse's finished ``message`` in ``lang``, or ``message`` itself when no msgid matches it.

    In English the msgid filled with the values it matched is ``message`` again, character for character.
    """
    for pattern, text in _PATTERNS:
        match = pattern.fullmatch(message)
        if match is None:
            continue
        values = {name.removeprefix("p"): value for name, value in match.groupdict().items()}
        if _NESTED in values:
            values[_NESTED] = parser_message(values[_NESTED], lang=lang)
        return _filled(text.in_(lang), values)
    return message
