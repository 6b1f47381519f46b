import os

from jinja2 import Environment, FileSystemLoader

here = os.path.dirname(os.path.abspath(__file__))
env = Environment(loader=FileSystemLoader(os.path.join(here, "templates")))

invoice = {
    "number": "INV-2024-0117",
    "lines": [
        {"sku": "KB-01", "qty": 2, "total": 59.80},
        {"sku": "MS-07", "qty": 1, "total": 24.90},
    ],
}
print(env.get_template("invoice.html").render(invoice=invoice))
