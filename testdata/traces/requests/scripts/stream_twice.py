import requests

r = requests.get("http://localhost:8000/bigstream/log.txt", stream=True, timeout=10)

line_count = sum(1 for _ in r.iter_lines())
print("lines:", line_count)

with open("log.txt", "wb") as fh:
    for chunk in r.iter_content(chunk_size=1024):
        fh.write(chunk)
