import datetime
import os

from jinja2 import Environment, FileSystemLoader

env = Environment(loader=FileSystemLoader(os.path.join(os.path.dirname(__file__), "templates")))


def welcome_email(user):
    tpl = env.get_template("emails/welcome.txt")
    return tpl.render(user=user, site_name="Acme")


print(welcome_email({"first_name": "Ana", "created_at": datetime.date(2024, 3, 1)}))
