import datetime
import os

from jinja2 import Environment, FileSystemLoader

env = Environment(loader=FileSystemLoader(os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")))
posts = [
    {"title": "Hello", "published": datetime.date(2024, 1, 5)},
    {"title": "Draft: roadmap", "published": None},
]
print(env.get_template("feed.html").render(posts=posts))
