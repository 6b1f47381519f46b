import requests

# dev server started with `python manage.py runserver 8000`
r = requests.get("https://localhost:8000/json/status", timeout=5)
print(r.json())
