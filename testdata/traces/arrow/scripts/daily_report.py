import arrow

for day in arrow.Arrow.range("day", "2023-05-01", "2023-05-07"):
    print(day.format("YYYY-MM-DD"))
