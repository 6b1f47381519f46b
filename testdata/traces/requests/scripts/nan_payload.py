import statistics

import requests

readings = []
avg = statistics.fmean(readings) if readings else float("nan")
r = requests.post("http://localhost:8000/sensors/7", json={"avg": avg}, timeout=5)
print(r.status_code)
