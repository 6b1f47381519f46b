import os

from jinja2 import Environment, FileSystemLoader

env = Environment(loader=FileSystemLoader(os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")))
stats = {"orders": 12, "refunds": 1, "visitors": 3400}
print(env.get_template("dashboard.html").render(stats=stats))
