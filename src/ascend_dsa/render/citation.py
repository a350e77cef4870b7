"""The project's citation as ``CITATION.cff`` and as the site's "cite this site" block, from one record.

Both come from [`ascend_dsa.facts.citation.PROJECT_CITATION`][]; the version is the package's own.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import Final

from ascend_dsa.facts.citation import CFF_VERSION, DISTRIBUTION, PROJECT_CITATION, ProjectCitation
from ascend_dsa.lang import Lang, check_lang, pick
from ascend_dsa.validate import require_instance, shown

#: What CITATION.cff asks of a reader (the format requires a message).
CFF_MESSAGE: Final = "If you use this package or its site, please cite it as below."


def project_version() -> str:
    """The installed package's version (``0.1.0``), or a ValueError saying how to install it."""
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError as error:
        raise ValueError(
            f"the {DISTRIBUTION} distribution must be installed to name its version (run `make setup`)"
        ) from error


def _check_version(value: str) -> str:
    if not isinstance(value, str) or not value.strip() or any(ch in value for ch in '\n"{}'):
        raise ValueError(f"version must be a one-line version string such as '0.1.0', got {shown(value)}")
    return value


def render_citation_cff(citation: ProjectCitation = PROJECT_CITATION, *, version: str | None = None) -> str:
    """``CITATION.cff`` (Citation File Format 1.2) for ``citation`` at ``version`` (default: the installed one)."""
    citation = require_instance("citation", citation, ProjectCitation)
    number = _check_version(project_version() if version is None else version)
    lines = [
        "# Generated from ascend_dsa.facts.citation by render_citation_cff; tests/render/test_citation.py checks it.",
        f"cff-version: {CFF_VERSION}",
        f'message: "{CFF_MESSAGE}"',
        f'title: "{citation.title.en}"',
        "type: software",
        f'version: "{number}"',
        f"license: {citation.licence}",
        f'abstract: "{citation.abstract.en}"',
        "authors:",
        *(f'  - name: "{author}"' for author in citation.authors),
        "keywords:",
        *(f'  - "{keyword}"' for keyword in citation.keywords),
    ]
    return "\n".join(lines) + "\n"


def render_citation(
    citation: ProjectCitation = PROJECT_CITATION, *, lang: Lang = "zh", version: str | None = None
) -> str:
    """The "cite this site" block: a sentence, and the same record as BibTeX, as in ``CITATION.cff``."""
    lang = check_lang(lang)
    citation = require_instance("citation", citation, ProjectCitation)
    number = _check_version(project_version() if version is None else version)
    authors = " and ".join(f"{{{author}}}" for author in citation.authors)
    bibtex = "\n".join(
        [
            "@software{ascend_dsa,",
            f"  title = {{{citation.title.en}}},",
            f"  author = {{{authors}}},",
            f"  version = {{{number}}},",
            f"  license = {{{citation.licence}}},",
            f"  note = {{Companion to {citation.companion_to.en}}},",
            "}",
        ]
    )
    sentence = pick(
        lang,
        f"{'、'.join(citation.authors)}，《{citation.title.zh}》，版本 {number}，{citation.licence} 许可。"
        f"它是 {citation.companion_to.zh} 的读书伴侣。仓库根目录的 `CITATION.cff` 与下面的 BibTeX 出自同一份记录。",
        f"{', '.join(citation.authors)}, *{citation.title.en}*, version {number}, {citation.licence} licence; a "
        f"companion to {citation.companion_to.en}. `CITATION.cff` at the repository's root and the BibTeX below come "
        "from the same record.",
    )
    return f"{sentence}\n\n```bibtex\n{bibtex}\n```\n"
