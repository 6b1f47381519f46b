from attrs import define


@define
class Coordinate:
    lat: float
    lon: float


seen = set()
for c in [Coordinate(52.5, 13.4), Coordinate(48.1, 11.6), Coordinate(52.5, 13.4)]:
    if c in seen:
        continue
    seen.add(c)
print(len(seen))
