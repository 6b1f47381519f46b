import httpx

with httpx.Client(base_url="http://localhost:8000") as client:
    r = client.get("/slow/exports/2024-05.csv")
    r.raise_for_status()
    open("2024-05.csv", "wb").write(r.content)
