import arrow

start = arrow.get("2023-04-30")
end = arrow.get("2023-05-27")
for wk_start, wk_end in arrow.Arrow.span_range("week", start, end, week_start=7):
    print(wk_start.format("ddd MMM D"), "-", wk_end.format("ddd MMM D"))
