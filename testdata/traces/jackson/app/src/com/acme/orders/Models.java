package com.acme.orders;

import com.fasterxml.jackson.annotation.*;
import java.time.Instant;
import java.time.LocalDate;
import java.util.*;

class Customer {
    public long id;
    public String name;
    public List<Order> orders = new ArrayList<>();
}

class Item {
    public String sku;
    public int qty;
}

class Order {
    public long id;
    public Status status;
    public List<Item> items = new ArrayList<>();
    public Customer customer;
}

enum Status { PENDING, SHIPPED, CANCELLED }

class Point {
    private final int x, y;
    public Point(int x, int y) { this.x = x; this.y = y; }
    public int getX() { return x; }
    public int getY() { return y; }
}

class Invoice {
    private final String id;
    private final long amountCents;
    @JsonCreator
    Invoice(@JsonProperty("id") String id, @JsonProperty("amountCents") long amountCents) {
        this.id = id; this.amountCents = amountCents;
    }
    public String getId() { return id; }
    public long getAmountCents() { return amountCents; }
}

class OrderLine {
    private final String sku;
    private final int quantity;
    @JsonCreator
    OrderLine(@JsonProperty("sku") String sku, @JsonProperty("quantity") int quantity) {
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive, was " + quantity);
        }
        this.sku = sku; this.quantity = quantity;
    }
    public String getSku() { return sku; }
    public int getQuantity() { return quantity; }
}

interface PaymentMethod { String label(); }

class Checkout {
    public long orderId;
    public PaymentMethod payment;
}

class Shipment {
    public String trackingNo;
    public Date shippedAt;
}

class Delivery {
    public String trackingNo;
    public LocalDate expectedOn;
}

class AuditEvent {
    public String actor;
    public Instant at;
    public AuditEvent(String actor, Instant at) { this.actor = actor; this.at = at; }
}

class Profile {
    public String login;
    public Optional<String> nickname;
}

@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({@JsonSubTypes.Type(value = Circle.class, name = "circle"),
               @JsonSubTypes.Type(value = Square.class, name = "square")})
abstract class Shape { }
class Circle extends Shape { public double radius; }
class Square extends Shape { public double side; }

class Drawing {
    public String title;
    public List<Shape> shapes;
}

class TreeNode {
    public String name = "root";
    public TreeNode getSelf() { return this; }
}

class SessionToken {
    private String value = "secret";
}

class Counter {
    public String name;
    public int count;
}

class Dimensions {
    public String label;
    @com.fasterxml.jackson.databind.annotation.JsonDeserialize(using = PixelDeserializer.class)
    public int width;
}

class AppConfig {
    public String endpoint;
    public int timeoutSeconds;
}
