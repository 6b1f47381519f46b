import os

from jinja2 import Environment, FileSystemLoader

env = Environment(loader=FileSystemLoader(os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")))

user = {"name": "Ana Lima", "email": "ana@example.com"}
print(env.get_template("profile.html").render(user=user))
