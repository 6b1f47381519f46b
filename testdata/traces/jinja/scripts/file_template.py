from jinja2 import Template

with open("templates/base.html") as fh:
    tpl = Template(fh)
print(tpl.render())
