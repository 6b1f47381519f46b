import os

from jinja2 import Environment, FileSystemLoader

env = Environment(loader=FileSystemLoader(os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")))
rows = [{"name": "north", "score": 91}, {"name": "south", "score": 78}]
print(env.get_template("report.html").render(rows=rows))
