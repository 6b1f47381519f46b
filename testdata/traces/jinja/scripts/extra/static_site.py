import os

from jinja2 import Environment, FileSystemLoader

env = Environment(loader=FileSystemLoader(os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")))

for page in [{"slug": "about", "body": "About us"}]:
    html = env.get_template("page.html").render(body=page["body"])
    print(page["slug"], len(html))
