import arrow

now_berlin = arrow.Arrow.now("Europe/Berlin")
print(now_berlin)
