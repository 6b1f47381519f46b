from attrs import define


@define
class Point:
    x: float
    y: float


def annotate(points):
    for i, p in enumerate(points):
        p.label = f"P{i}"
    return points


pts = [Point(0, 0), Point(1, 2)]
annotate(pts)
print([p.label for p in pts])
