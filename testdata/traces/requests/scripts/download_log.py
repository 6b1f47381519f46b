import requests

r = requests.get("http://localhost:8000/truncated/export.csv", stream=True, timeout=10)
with open("export.csv", "wb") as fh:
    for chunk in r.iter_content(chunk_size=8192):
        fh.write(chunk)
print("done")
