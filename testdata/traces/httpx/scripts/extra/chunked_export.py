import httpx

with httpx.Client(timeout=10) as client:
    with client.stream("GET", "http://localhost:8000/truncated/export.csv") as r:
        with open("export.csv", "wb") as fh:
            for chunk in r.iter_bytes():
                fh.write(chunk)
