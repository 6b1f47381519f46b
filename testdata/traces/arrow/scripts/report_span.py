import arrow

today = arrow.utcnow()
start, end = today.span("fortnight")
print(start, end)
