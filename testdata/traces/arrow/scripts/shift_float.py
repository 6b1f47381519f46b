import arrow

start = arrow.get("2023-05-01")
print(start.shift(months=1.5))
