import requests

# host name built from the tenant config
tenant = "café-"
url = f"http://{tenant}.eu.example.com/api/status"
print(requests.get(url, timeout=5).status_code)
