import React from "react";

export function View(props: { name: string }) {
  const label = () => <b>{props.name}</b>;
  return <div>{label()}</div>;
}

export class Panel extends React.Component {
  render() {
    return <View name="x" />;
  }
}
