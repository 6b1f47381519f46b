import os

from jinja2 import Environment, FileSystemLoader

# ported from our Django project
env = Environment(loader=FileSystemLoader(os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")))
print(env.get_template("nav.html").render())
