package com.acme.orders;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.*;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.time.Instant;

public class TraceRunner {

    static void run(String name) throws Exception {
        switch (name) {
            case "01-unknown-property": {
                new CustomerClient().fetchCustomer("{\"id\":7,\"nmae\":\"Ada Lovelace\"}");
                break;
            }
            case "02-unknown-property-nested-wrapped": {
                new OrderImporter(Json.MAPPER).importOrder("sftp://partner/orders/0042.json",
                    "{\"id\":42,\"status\":\"PENDING\",\"items\":[{\"sku\":\"A-1\",\"qty\":2},{\"sku_code\":\"B-7\",\"qty\":1}]}");
                break;
            }
            case "03-no-creators": {
                new CustomerClient().parsePoint("{\"x\":3,\"y\":4}");
                break;
            }
            case "04-missing-creator-property-wrapped": {
                ObjectMapper m = JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES).build();
                new OrderImporter(m).importInvoice("{\"amountCents\":1999}");
                break;
            }
            case "05-constructor-throws": {
                new OrderImporter(Json.MAPPER).parseLine("{\"sku\":\"A-1\",\"quantity\":0}");
                break;
            }
            case "06-abstract-type": {
                new OrderImporter(Json.MAPPER).parseCheckout("{\"orderId\":42,\"payment\":{\"card\":\"4111\"}}");
                break;
            }
            case "07-array-for-object-wrapped": {
                new OrderImporter(Json.MAPPER).importOrder("https://api.partner.example/orders?id=42",
                    "[{\"id\":42,\"status\":\"PENDING\",\"items\":[]}]");
                break;
            }
            case "08-string-into-int": {
                new OrderImporter(Json.MAPPER).parseItem("{\"sku\":\"A-1\",\"qty\":\"two\"}");
                break;
            }
            case "09-null-into-primitive": {
                ObjectMapper m = JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES).build();
                new OrderImporter(m).parseItem("{\"sku\":\"A-1\",\"qty\":null}");
                break;
            }
            case "10-bad-enum": {
                new OrderImporter(Json.MAPPER).parseOrder("{\"id\":42,\"status\":\"shipped\",\"items\":[]}");
                break;
            }
            case "11-bad-date-wrapped": {
                new ShippingService().recordShipment("{\"trackingNo\":\"1Z999\",\"shippedAt\":\"05/12/2024 14:30\"}");
                break;
            }
            case "12-java-time-read": {
                new ShippingService().parseDelivery("{\"trackingNo\":\"1Z999\",\"expectedOn\":\"2024-12-05\"}");
                break;
            }
            case "13-java-time-write": {
                new ShippingService().auditJson(new AuditEvent("alice", Instant.parse("2024-12-05T10:15:30Z")));
                break;
            }
            case "14-optional-read": {
                new CustomerClient().parseProfile("{\"login\":\"ada\",\"nickname\":\"countess\"}");
                break;
            }
            case "15-trailing-comma": {
                new ConfigLoader(Json.MAPPER).parse("{\n  \"endpoint\": \"https://api.acme.example\",\n  \"timeoutSeconds\": 30,\n}\n");
                break;
            }
            case "16-single-quotes-wrapped": {
                new ConfigLoader(Json.MAPPER).load("app.json", "{'endpoint': 'https://api.acme.example', 'timeoutSeconds': 30}");
                break;
            }
            case "17-truncated-json": {
                new OrderImporter(Json.MAPPER).parseOrder("{\"id\":42,\"status\":\"PENDING\",\"items\":[{\"sku\":\"A-1\",\"qty\":2}");
                break;
            }
            case "18-missing-type-id": {
                new DrawingService().load("{\"title\":\"plan\",\"shapes\":[{\"radius\":2.5}]}");
                break;
            }
            case "19-unknown-type-id-wrapped": {
                new DrawingService().loadForUser("bob", "{\"title\":\"plan\",\"shapes\":[{\"type\":\"triangle\",\"side\":3}]}");
                break;
            }
            case "20-self-reference": {
                new DrawingService().render(new TreeNode());
                break;
            }
            case "21-infinite-recursion": {
                Customer c = new Customer(); c.id = 7; c.name = "Ada";
                Order o = new Order(); o.id = 42; o.status = Status.PENDING; o.customer = c;
                c.orders.add(o);
                new DrawingService().render(o);
                break;
            }
            case "22-empty-bean": {
                new DrawingService().render(new SessionToken());
                break;
            }
            case "23-trailing-tokens": {
                ObjectMapper m = JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
                new OrderImporter(m).parseCounter("{\"name\":\"hits\",\"count\":1}{\"name\":\"misses\",\"count\":2}");
                break;
            }
            case "24-int-overflow": {
                new OrderImporter(Json.MAPPER).parseCounter("{\"name\":\"bytes\",\"count\":3000000000}");
                break;
            }
            case "25-custom-deserializer-throws": {
                new OrderImporter(Json.MAPPER).parseDimensions("{\"label\":\"banner\",\"width\":\"12.5px\"}");
                break;
            }
            // ---- causes the pages do not cover
            case "26-file-not-found": {
                new ConfigLoader(Json.MAPPER).loadFile("/home/dev/orders-service/config/app.json");
                break;
            }
            case "27-null-content": {
                new CustomerClient().fetchCustomer(null);
                break;
            }
            case "28-textnode-cast": {
                new CustomerClient().renameCustomer("{\"id\":7,\"name\":\"Ada\"}", "Augusta");
                break;
            }
            case "29-npe-after-null-json": {
                new CustomerClient().displayName("null");
                break;
            }
            case "30-map-key-deserializer": {
                ObjectMapper m = Json.MAPPER;
                m.readValue("{\"3,4\":\"warehouse\"}",
                    new com.fasterxml.jackson.core.type.TypeReference<java.util.Map<Point, String>>() { });
                break;
            }
            default:
                throw new IllegalArgumentException("unknown scenario " + name);
        }
    }

    public static void main(String[] args) throws Exception {
        Path out = Paths.get(args[0]);
        Files.createDirectories(out);
        for (int i = 1; i < args.length; i++) {
            String name = args[i];
            try {
                run(name);
                System.err.println(name + ": DID NOT FAIL");
            } catch (Throwable t) {
                ByteArrayOutputStream buf = new ByteArrayOutputStream();
                PrintStream ps = new PrintStream(buf, true, "UTF-8");
                t.printStackTrace(ps);
                Files.write(out.resolve(name + ".txt"), buf.toByteArray());
                System.err.println(name + ": " + t.getClass().getName());
            }
        }
    }
}
