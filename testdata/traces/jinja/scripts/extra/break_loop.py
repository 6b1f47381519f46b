from jinja2 import Template

tpl = Template("""
{%- for line in log_lines -%}
{%- if line.startswith("FATAL") %}{% break %}{% endif -%}
{{ line }}
{% endfor -%}
""")
print(tpl.render(log_lines=["INFO start", "FATAL disk full", "INFO stop"]))
