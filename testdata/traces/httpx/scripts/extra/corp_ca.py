import httpx

client = httpx.Client(verify="/etc/ssl/certs/corp-root-ca.pem")
print(client.get("https://localhost:8443/json/status").status_code)
