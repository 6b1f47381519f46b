import arrow

print(arrow.get("2023-05-01T24:30:00"))
