import httpx

with httpx.stream("GET", "http://localhost:8000/bigstream/app.log") as response:
    if response.status_code == 200:
        lines = response.text.splitlines()
        print(len(lines))
