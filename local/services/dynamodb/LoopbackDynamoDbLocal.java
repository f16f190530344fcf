import java.lang.reflect.Field;
import java.util.Arrays;

/**
 * Runs DynamoDB Local (its jar on the class path) listening on one address only: its command
 * line has no host option, and its Jetty server listens on every interface. launcher.ts
 * compiles it once per version of this file (javac --release 17, into the temporary directory);
 * without javac, Java's source launcher runs it (java LoopbackDynamoDbLocal.java <host>
 * <line printed once listening> <options>); dynamodb-local.ts falls back to the plain jar, and says so, where neither works.
 * Reflection only: it compiles against the JDK alone.
 */
public class LoopbackDynamoDbLocal {
  public static void main(String[] args) throws Exception {
    String host = args[0];
    // Printed once the server listens: dynamodb-local.ts names it (LAUNCHER_LISTENING).
    String listening = args[1];
    String[] options = Arrays.copyOfRange(args, 2, args.length);
    Class<?> runner = Class.forName("software.amazon.dynamodb.services.local.main.ServerRunner");
    Object server =
        runner
            .getMethod("createServerFromCommandLineArgs", String[].class)
            .invoke(null, (Object) options);
    Field field = server.getClass().getDeclaredField("server");
    field.setAccessible(true);
    Object jetty = field.get(server);
    for (Object connector : (Object[]) jetty.getClass().getMethod("getConnectors").invoke(jetty)) {
      connector.getClass().getMethod("setHost", String.class).invoke(connector, host);
    }
    server.getClass().getMethod("start").invoke(server);
    // Only this JVM can have bound the port once start returned: dynamodb-local.ts waits for
    // this line, so a server of another process answering on the port is never taken for ours.
    System.out.println(listening);
    System.out.flush();
  }
}
