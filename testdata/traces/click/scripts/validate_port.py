import click


def validate_port(value):
    if not 1 <= value <= 65535:
        raise click.BadParameter("port must be between 1 and 65535")
    return value


@click.command()
@click.option("--port", type=int, default=8080, callback=validate_port)
def serve(port):
    click.echo(f"listening on {port}")


if __name__ == "__main__":
    serve()
