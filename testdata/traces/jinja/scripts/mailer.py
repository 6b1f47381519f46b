from pathlib import Path

from jinja2 import Environment, FileSystemLoader

TEMPLATES = Path(__file__).resolve().parent / "templates"
env = Environment(loader=FileSystemLoader(str(TEMPLATES)))


def render_mail(name, **ctx):
    return env.get_template(Path("emails") / name).render(**ctx)


print(render_mail("welcome.txt", user={"first_name": "Ana"}, site_name="Acme"))
