import datetime
import os

from jinja2 import Environment, FileSystemLoader

env = Environment(loader=FileSystemLoader(os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")))
events = [{"title": "Launch", "at": datetime.datetime(2024, 6, 1, 18, 0)}]
print(env.get_template("events.html").render(events=events))
