import requests

# ssh -D 1080 bastion
proxies = {"http": "socks5h://127.0.0.1:1080", "https": "socks5h://127.0.0.1:1080"}
r = requests.get("http://localhost:8000/json/inventory", proxies=proxies, timeout=10)
print(r.json())
