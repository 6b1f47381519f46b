import os

from jinja2 import Environment, FileSystemLoader

env = Environment(loader=FileSystemLoader(os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")))
products = [{"name": "Lamp", "stock": 3}, {"name": "Desk", "stock": 0}]
print(env.get_template("products.html").render(products=products))
