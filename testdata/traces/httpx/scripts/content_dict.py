import httpx

payload = {"event": "deploy", "service": "api"}
r = httpx.post("http://localhost:8000/hooks/deploy", content=payload)
print(r.status_code)
