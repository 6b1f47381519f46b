import arrow

payload = {"ts": "1682939200"}
when = arrow.get(payload["ts"])
print(when.humanize())
