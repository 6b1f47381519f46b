import os

from jinja2 import Environment, FileSystemLoader

env = Environment(loader=FileSystemLoader(os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")))
items = [{"name": "Coffee", "price": 3.5}, {"name": "Tea (seasonal)", "price": None}]
print(env.get_template("prices.html").render(items=items))
