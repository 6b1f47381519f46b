import httpx

timeout = httpx.Timeout(10.0, connect=2.0)
with httpx.Client(timeout=timeout) as client:
    r = client.post("http://127.0.0.1:8089/v1/invoices/sync", json={"since": "2024-05-01"})
    print(r.status_code)
