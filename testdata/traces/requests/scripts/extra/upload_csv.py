import requests

with open("exports/customers-2024-05.csv", "rb") as fh:
    r = requests.post(
        "http://localhost:8000/import",
        files={"file": ("customers.csv", fh, "text/csv")},
        timeout=30,
    )
print(r.status_code)
