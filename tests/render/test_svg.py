from ascend_dsa.render.svg import figure, to_svg


def _draw() -> str:
    with figure(3, 2) as fig:
        ax = fig.add_subplot()
        ax.plot([0, 1], [0, 1], label="算力")
        ax.set_title("每核 L2 周期")
        ax.legend()
        return to_svg(fig)


def test_svg_is_deterministic_and_keeps_text() -> None:
    """Two renders are identical, start at <svg, keep Chinese as text and name no external resource."""
    first, second = _draw(), _draw()
    assert first == second
    assert first.startswith("<svg")
    assert "每核 L2 周期" in first
    assert 'href="http' not in first
    assert "<metadata>" not in first
