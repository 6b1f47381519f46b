import arrow

base = arrow.get("2023-05-01")
print(base.dehumanize("in a fortnight"))
