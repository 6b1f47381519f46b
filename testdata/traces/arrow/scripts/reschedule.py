import arrow

meeting = arrow.get("2023-05-01T09:00:00+02:00")
moved = meeting.replace(days=+1)
print(moved)
