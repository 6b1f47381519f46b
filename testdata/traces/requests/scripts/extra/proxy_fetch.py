import requests

proxies = {
    "http": "http://127.0.0.1:3128",
    "https": "http://127.0.0.1:3128",
}

r = requests.get("http://localhost:8000/json/prices", proxies=proxies, timeout=10)
print(r.json())
