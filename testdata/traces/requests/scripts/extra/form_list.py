import requests

tags = ["python", "http", "testing"]
r = requests.post("http://localhost:8000/tags", data=tags, timeout=5)
print(r.status_code)
