from jinja2 import Template

tpl = Template("Total: {{ amount|round(2, 'up') }} EUR")
print(tpl.render(amount=19.999))
